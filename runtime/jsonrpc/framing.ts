/**
 * Newline-delimited JSON framing (stdio and any byte stream). Messages never contain a raw newline because
 * JSON.stringify escapes them inside strings.
 */

/** Default cap on one message's size (base64 blobs make large messages legitimate). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** A line longer than the decoder's cap: its bytes were dropped up to the next newline. */
export interface OversizedLine {
  readonly oversized: number;
}

/**
 * Splits a byte stream into lines; keeps the chunks of a partial trailing line until its newline arrives (joined once,
 * so a large message costs one copy). A line beyond `maxLineBytes` is dropped and reported instead of buffered.
 */
export class LineDecoder {
  private parts: Buffer[] = [];
  private partsLength = 0;
  private dropped = 0;

  constructor(private readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {}

  /** Feeds a chunk and returns every complete line in it (without the newline, `\r` trimmed). */
  push(chunk: Buffer): Array<string | OversizedLine> {
    const lines: Array<string | OversizedLine> = [];
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      if (this.dropped > 0) {
        lines.push({ oversized: this.dropped + nl - start });
        this.dropped = 0;
      } else {
        const piece = chunk.subarray(start, nl);
        const line = this.partsLength > 0 ? Buffer.concat([...this.parts, piece]) : piece;
        this.parts = [];
        this.partsLength = 0;
        const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
        if (end > 0) lines.push(line.toString("utf8", 0, end));
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.length - start;
      if (this.dropped > 0) this.dropped += rest;
      else if (this.partsLength + rest > this.maxLineBytes) {
        this.dropped = this.partsLength + rest;
        this.parts = [];
        this.partsLength = 0;
      } else {
        this.parts.push(chunk.subarray(start));
        this.partsLength += rest;
      }
    }
    return lines;
  }

  /**
   * The stream ended: returns its last line when it had no trailing newline (a JSON-RPC message all the same),
   * or what was dropped of it when it was over the cap, and forgets it.
   */
  end(): string | OversizedLine | undefined {
    const dropped = this.dropped;
    const line = this.partsLength > 0 ? Buffer.concat(this.parts) : undefined;
    this.parts = [];
    this.partsLength = 0;
    this.dropped = 0;
    if (dropped > 0) return { oversized: dropped };
    if (!line) return undefined;
    const end = line[line.length - 1] === 13 ? line.length - 1 : line.length;
    return end > 0 ? line.toString("utf8", 0, end) : undefined;
  }

  /** Bytes of an unfinished line (reported when the stream ends mid-message). */
  get buffered(): number {
    return this.partsLength + this.dropped;
  }
}

export function encodeLine(message: object): string {
  return JSON.stringify(message) + "\n";
}
