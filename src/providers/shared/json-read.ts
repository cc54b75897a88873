import type { JsonObject, JsonValue } from '../../core/json.js';

/** Response bodies come from servers we don't control: read them defensively, never trust shapes. */
export function asObject(value: JsonValue | undefined): JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

export function numberOr0(value: JsonValue | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
