/**
 * The image bytes all turns hold at once, in the whole process. A turn keeps its images until it
 * ends (they go with every model call of the turn), so without this cap many questions with large
 * images at the same moment could exhaust the memory; past it, further images are named instead.
 */
export class ImageMemory {
  private held = 0;

  constructor(private readonly capacity: number) {}

  /** Takes `bytes` if they fit in what is left; false (and nothing taken) otherwise. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.capacity) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }

  /** Bytes held now (for tests). */
  get inUse(): number {
    return this.held;
  }
}
