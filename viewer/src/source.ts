// Where the index's bytes come from: the local server (`ackclock view`) by
// byte range, or one buffer inlined in an exported page. Chunks are read on
// demand and the most recent ones kept.

import { Chunk, Header, chunkAt, decodeChunk, decodeHeader, decodeOverview, readTrailer } from './format';

export interface Source {
  size(): Promise<number>;
  read(offset: number, length: number): Promise<ArrayBuffer>;
}

export class HttpSource implements Source {
  constructor(private readonly url: string) {}

  async size(): Promise<number> {
    const response = await fetch(`${this.url}?size`);
    return Number(await response.text());
  }

  async read(offset: number, length: number): Promise<ArrayBuffer> {
    const response = await fetch(`${this.url}?offset=${offset}&length=${length}`);
    if (!response.ok) throw new Error(`reading the index: ${response.status} ${response.statusText}`);
    return response.arrayBuffer();
  }
}

export class MemorySource implements Source {
  constructor(private readonly bytes: ArrayBuffer) {}

  async size(): Promise<number> {
    return this.bytes.byteLength;
  }

  async read(offset: number, length: number): Promise<ArrayBuffer> {
    return this.bytes.slice(offset, offset + length);
  }
}

const CACHED_CHUNKS = 32;

/** An opened index: header, overview and a cache of decoded chunks. */
export class Trace {
  private readonly chunks = new Map<number, Chunk>();
  private readonly pending = new Map<number, Promise<Chunk>>();

  private constructor(
    private readonly source: Source,
    readonly header: Header,
    readonly overview: Map<string, Float32Array>,
  ) {}

  static async open(source: Source): Promise<Trace> {
    const size = await source.size();
    const { offset, length } = readTrailer(await source.read(size - 24, 24));
    const header = decodeHeader(await source.read(offset, length));
    const overview = decodeOverview(await source.read(header.overview.offset, header.overview.length), header);
    return new Trace(source, header, overview);
  }

  get chunkCount(): number {
    return this.header.chunks.t0.length;
  }

  chunkAt(t: number): number {
    return chunkAt(this.header, t);
  }

  /** Chunk i if it is decoded already. */
  cached(i: number): Chunk | undefined {
    const chunk = this.chunks.get(i);
    if (chunk) {
      // Most recently used last.
      this.chunks.delete(i);
      this.chunks.set(i, chunk);
    }
    return chunk;
  }

  load(i: number): Promise<Chunk> {
    const cached = this.cached(i);
    if (cached) return Promise.resolve(cached);
    let pending = this.pending.get(i);
    if (!pending) {
      const { offset, length } = this.header.chunks;
      pending = this.source.read(offset[i], length[i]).then((bytes) => {
        const chunk = decodeChunk(bytes);
        this.pending.delete(i);
        this.chunks.set(i, chunk);
        while (this.chunks.size > CACHED_CHUNKS) this.chunks.delete(this.chunks.keys().next().value as number);
        return chunk;
      });
      this.pending.set(i, pending);
    }
    return pending;
  }
}
