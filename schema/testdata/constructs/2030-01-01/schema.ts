/* Test fixture: deprecation markers that only schema.ts carries. */
export const LATEST_PROTOCOL_VERSION = "2030-01-01";
export const WIDGET_GONE = -32051;

/**
 * A thing only the TypeScript marks.
 *
 * @deprecated Use Widget instead.
 * Kept for a while.
 *
 * @example Not part of the notice
 * {@includeCode ./examples/TSThing/x.json}
 */
export interface TSThing {
  x?: string;
  /**
   * Why.
   * @deprecated y is going away.
   */
  y?: string;
}
