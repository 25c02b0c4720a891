import type { BudgetLine } from "../../store/budget-store.js";

/**
 * A share of a set of budgets (those that apply to one kind of call: a workspace's day and month,
 * a channel's day…) that this process holds in the store, so that most calls reserve in memory:
 * the store's reservation, a write transaction, is made once per slice instead of once per call.
 * The store counts every slice as held, so processes never spend more than a budget between them.
 */
export interface Slice {
  /** The budgets, as the store knows them (key and window). */
  readonly lines: readonly Pick<BudgetLine, "key" | "windowStart">[];
  /** What no call has reserved yet, per budget, in the budget's unit (the store holds this and what calls reserved). */
  readonly left: number[];
  /** After this the slice is given back and a new one taken (well before the store lets a hold lapse). */
  readonly until: number;
  /** Given back: calls still out settle against the store alone. */
  released: boolean;
}

/** Slices held at most (sets of budgets in use recently); the oldest is given back first. */
const MAX_SLICES = 1_000;

/** This process's slices, by set of budgets. */
export class SliceBook {
  private readonly slices = new Map<string, Slice>();

  /** The slice of `set` if it is live and has `need` left on every budget (taken from it then). */
  reserve(set: string, need: readonly number[], now: number): Slice | undefined {
    const slice = this.slices.get(set);
    if (!slice || slice.until <= now || need.some((amount, i) => slice.left[i]! < amount)) return undefined;
    need.forEach((amount, i) => (slice.left[i]! -= amount));
    return slice;
  }

  /** Takes `set`'s slice out of the book (to give back what is left of it); undefined when there is none. */
  remove(set: string): Slice | undefined {
    const slice = this.slices.get(set);
    if (!slice) return undefined;
    this.slices.delete(set);
    slice.released = true;
    return slice;
  }

  /** Adds a new slice; returns the slices it replaces (a call beside it took one too) or the bound pushed out, to give back. */
  add(set: string, slice: Slice): Slice[] {
    const replaced = this.remove(set);
    const evicted: Slice[] = replaced ? [replaced] : [];
    this.slices.set(set, slice);
    for (const [oldest] of this.slices) {
      if (this.slices.size <= MAX_SLICES) break;
      evicted.push(this.remove(oldest)!);
    }
    return evicted;
  }
}

/** The identity of a set of budgets (in their windows), for the book. */
export const sliceSet = (lines: readonly Pick<BudgetLine, "key" | "windowStart">[]): string =>
  lines.map((line) => `${line.key}@${line.windowStart}`).join("\u0000");
