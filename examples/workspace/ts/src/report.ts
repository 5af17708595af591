import { Cart } from './cart.js';
import { formatPrice } from './money.js';

export function summary(cart: Cart): string {
  return `Cart total: ${formatPrice(cart.total())}`;
}

// A deliberate error: formatPrice takes cents as a number.
export const broken: string = formatPrice('12');
