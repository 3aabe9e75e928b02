/**
 * Newline-delimited JSON framing (stdio and any byte stream). Messages never contain a raw newline because
 * JSON.stringify escapes them inside strings.
 */

/** Splits a byte stream into lines; keeps a partial trailing line until its newline arrives. */
export class LineDecoder {
  private pending: Buffer | undefined;

  /** Feeds a chunk and returns every complete line in it (without the newline, `\r` trimmed). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let start = 0;
    for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
      const end = nl > start && data[nl - 1] === 13 ? nl - 1 : nl;
      if (end > start) lines.push(data.toString("utf8", start, end));
      start = nl + 1;
    }
    this.pending = start < data.length ? data.subarray(start) : undefined;
    return lines;
  }

  /** Bytes of an unfinished line (reported when the stream ends mid-message). */
  get buffered(): number {
    return this.pending?.length ?? 0;
  }
}

export function encodeLine(message: object): string {
  return JSON.stringify(message) + "\n";
}
