/** One line of `npm run doctor`: an item checked and what was found. A warning does not fail the run. */
export interface Verdict {
  item: string;
  status: "pass" | "warning" | "fail";
  detail: string;
}

export async function attempt(item: string, check: () => Promise<string>): Promise<Verdict> {
  try {
    return { item, status: "pass", detail: await check() };
  } catch (error) {
    return { item, status: "fail", detail: (error as Error).message };
  }
}

export function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
