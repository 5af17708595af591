import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { MAX_DOCUMENT_BYTES } from '@agent-lsp/lsp';

const LF = 0x0a;
const CR = 0x0d;

/**
 * Lines of files on disk, read as bytes into one reused buffer, of which only the lines asked for
 * become strings. A thousand references name a few hundred files: read as strings and split into
 * lines they were a front's largest allocation by far (effect's 7.6 MB of sources, ~15 MiB of heap
 * per find_references), garbage that V8 keeps until its next full collection.
 */
export class DiskLineReader {
  private buffer = Buffer.allocUnsafe(0);
  private size = 0;
  /** Byte offset where each line starts, of the file now in the buffer. */
  private starts: number[] = [];

  /**
   * Reads `path` (a regular file within the document size limit). False when it cannot, or when
   * it has carriage returns: lines then end at \r too, which the caller's text split handles.
   */
  load(path: string): boolean {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return false;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || st.size > MAX_DOCUMENT_BYTES) return false;
      if (this.buffer.length < st.size) this.buffer = Buffer.allocUnsafe(st.size);
      let size = 0;
      // A file may grow while it is read: its first st.size bytes are what it is taken to be.
      while (size < st.size) {
        const n = readSync(fd, this.buffer, size, st.size - size, size);
        if (n === 0) break;
        size += n;
      }
      const bytes = this.buffer.subarray(0, size);
      if (bytes.includes(CR)) return false;
      this.size = size;
      this.starts = [0];
      for (let i = bytes.indexOf(LF); i !== -1; i = bytes.indexOf(LF, i + 1)) this.starts.push(i + 1);
      return true;
    } catch {
      return false;
    } finally {
      closeSync(fd);
    }
  }

  /** Line `n` (0-based) of the loaded file, without its end; '' past the last line, as splitLines. */
  line(n: number): string {
    if (n < 0 || n >= this.starts.length) return '';
    const start = this.starts[n] ?? 0;
    const end = n + 1 < this.starts.length ? (this.starts[n + 1] ?? this.size) - 1 : this.size;
    return this.buffer.toString('utf8', start, end);
  }
}
