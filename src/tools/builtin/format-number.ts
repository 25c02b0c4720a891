/** A number as people read it: twelve significant digits, no float noise such as 11.235000000000001. */
export function formatNumber(value: number): string {
  return String(Number(value.toPrecision(12)));
}
