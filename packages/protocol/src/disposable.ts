/** Anything with a lifetime. `dispose()` is idempotent. */
export interface Disposable {
  dispose(): void;
}

/** Owns a set of disposables and disposes them together, last added first. */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.items.reverse()) {
      try {
        item.dispose();
      } catch {
        // One failing disposer must not keep the others alive.
      }
    }
    this.items = [];
  }
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** A minimal typed event: `on` returns a Disposable that unsubscribes. */
export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  on(listener: (value: T) => void): Disposable {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  }

  fire(value: T): void {
    for (const l of [...this.listeners]) l(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
