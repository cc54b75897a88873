/**
 * `{ ...base, ...extra }`: the same keys in the same order with the same values, built by
 * Object.assign. On Node 20's V8 an object literal that starts with a spread and then adds a key
 * the spread lacks gets a hidden class of its own, per object, allocated in old space: a trial,
 * request or score made that way costs a few hundred bytes more and leaves garbage only a full GC
 * frees (docs/engine.md, "Object shapes"). Use this for objects made per trial or per call.
 */
export function extend<A extends object, B extends object>(base: A, extra: B): Omit<A, keyof B> & B {
  return Object.assign({}, base, extra) as Omit<A, keyof B> & B;
}
