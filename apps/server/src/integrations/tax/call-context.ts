/** Who acts in a tax-service call (for the sync log row); re-exported by income-types.ts and types.ts. */
export interface TaxCallContext {
  userId?: string | null;
}
