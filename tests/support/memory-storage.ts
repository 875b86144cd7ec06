/**
 * An in-memory Web Storage for unit tests. `quota` caps the characters of all keys and values
 * together; a write beyond it throws QuotaExceededError, as a full browser storage does.
 */
export class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  constructor(private quota = Infinity) {}
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    const others = [...this.items].reduce((sum, [k, v]) => (k === key ? sum : sum + k.length + v.length), 0);
    if (others + key.length + value.length > this.quota) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    this.items.set(key, value);
  }
}

/** Storage the browser refuses altogether (blocked by privacy settings). */
export class RefusingStorage extends MemoryStorage {
  override getItem(): string | null {
    throw new DOMException("The operation is insecure.", "SecurityError");
  }
  override setItem(): void {
    throw new DOMException("The operation is insecure.", "SecurityError");
  }
}
