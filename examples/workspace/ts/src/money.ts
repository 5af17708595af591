/** Formats an amount of cents as a price like "12.34 €". */
export function formatPrice(cents: number, currency = '€'): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

export function addTax(cents: number, rate: number): number {
  return Math.round(cents * (1 + rate));
}
