/** A binary artefact (a rendered slide, a deck's HTML) kept once in the store by its content hash. */
export interface BlobRef {
  /** Hex SHA-256 of the bytes. */
  hash: string;
  /** e.g. `image/png`, `text/html`. */
  mediaType: string;
  size: number;
}
