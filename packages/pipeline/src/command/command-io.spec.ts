import { EventEmitter } from 'node:events';
import { pipeSafeWriter } from './command-io.js';

/** A stream whose reader went away: `write` throws or emits EPIPE like `process.stdout` piped into `head`. */
class ClosedPipe extends EventEmitter {
  written: string[] = [];
  constructor(private readonly mode: 'throw' | 'emit' | 'other') {
    super();
  }
  write(text: string): boolean {
    const error = Object.assign(new Error(this.mode === 'other' ? 'EIO: i/o error, write' : 'write EPIPE'), { code: this.mode === 'other' ? 'EIO' : 'EPIPE', errno: -32, syscall: 'write' });
    if (this.mode === 'throw' || this.mode === 'other') throw error;
    this.written.push(text);
    this.emit('error', error);
    return false;
  }
}

describe('pipeSafeWriter', () => {
  it('swallows an EPIPE the stream emits and drops later writes', () => {
    const stream = new ClosedPipe('emit');
    const write = pipeSafeWriter(stream);
    expect(() => write('{"answer": 2140,')).not.toThrow();
    expect(() => write(' "confidence": 0.9}\n')).not.toThrow();
    expect(stream.written).toEqual(['{"answer": 2140,']);
  });

  it('swallows an EPIPE the write throws', () => {
    const write = pipeSafeWriter(new ClosedPipe('throw'));
    expect(() => write('Answer: 2140\n')).not.toThrow();
    expect(() => write('Confidence: 0.90\n')).not.toThrow();
  });

  it('keeps other write errors', () => {
    const write = pipeSafeWriter(new ClosedPipe('other'));
    expect(() => write('x')).toThrow(/EIO/);
  });
});
