/**
 * Runs tasks one after another per key, in arrival order; different keys run concurrently.
 * A key's entry is dropped as soon as its last task settles, so idle conversations cost nothing.
 */
export class KeyedQueue {
  private readonly queues = new Map<string, { tail: Promise<unknown>; size: number }>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const entry = this.queues.get(key) ?? { tail: Promise.resolve(), size: 0 };
    entry.size++;
    const result = entry.tail.then(task, task);
    entry.tail = result.then(
      () => this.release(key),
      () => this.release(key),
    );
    this.queues.set(key, entry);
    return result;
  }

  /** Tasks waiting or running for this key. */
  depth(key: string): number {
    return this.queues.get(key)?.size ?? 0;
  }

  get activeKeys(): number {
    return this.queues.size;
  }

  private release(key: string): void {
    const entry = this.queues.get(key);
    if (entry && --entry.size === 0) this.queues.delete(key);
  }
}
