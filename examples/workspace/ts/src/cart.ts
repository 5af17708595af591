import { addTax, formatPrice } from './money.js';

export interface Item {
  name: string;
  cents: number;
}

export class Cart {
  private readonly items: Item[] = [];

  add(item: Item): void {
    this.items.push(item);
  }

  total(): number {
    return addTax(this.items.reduce((sum, i) => sum + i.cents, 0), 0.2);
  }

  describe(): string {
    return `${this.items.length} items, ${formatPrice(this.total())}`;
  }
}
