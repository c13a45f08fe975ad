import type { TemplateContext } from '../template.js';
import type { CompiledSocketStep } from './compile-socket.js';

/** A frame the app sent, as the rules test it: its bytes, its text (a text frame) and, when the text is JSON, its value. */
export interface IncomingFrame {
  data: Buffer;
  /** `undefined` for a binary frame. */
  text: string | undefined;
  /** Set when the text parses as JSON. */
  json: { value: unknown } | undefined;
}

/** A text frame; its JSON is parsed the first time a rule or a template asks for it. */
class TextFrame implements IncomingFrame {
  #json: IncomingFrame['json'] | null = null;
  constructor(
    readonly data: Buffer,
    readonly text: string,
  ) {}
  get json(): IncomingFrame['json'] {
    if (this.#json !== null) return this.#json;
    const first = this.text.trimStart()[0];
    this.#json = undefined;
    if (first === '{' || first === '[' || first === '"' || (first !== undefined && /[-\d tfn]/.test(first))) {
      try {
        this.#json = { value: JSON.parse(this.text) as unknown };
      } catch {
        // Not JSON: rules see its text only.
      }
    }
    return this.#json;
  }
}

/** A frame as it arrived (`ws` hands over its bytes and whether it was binary). */
export function incomingFrame(data: Buffer, binary: boolean): IncomingFrame {
  if (binary) return { data, text: undefined, json: undefined };
  return new TextFrame(data, data.toString('utf8'));
}

/** What a template reads as `body` in a rule's steps: the frame's JSON value, else its text. */
export function frameBody(frame: IncomingFrame | undefined): unknown {
  if (frame === undefined) return undefined;
  return frame.json !== undefined ? frame.json.value : frame.text;
}

/** The bytes and kind of a `send` step's frame, its templates filled in. */
export function outgoingFrame(step: Extract<CompiledSocketStep, { kind: 'send' }>, context: TemplateContext): { data: string | Buffer; binary: boolean } {
  // A frame with no template in it is made once, when the mock is compiled.
  if (step.fixed !== undefined) return step.fixed;
  const value = step.value.evaluate(context);
  if (step.binary) return { data: Buffer.from(String(value), 'base64'), binary: true };
  return { data: step.json ? JSON.stringify(value) : String(value ?? ''), binary: false };
}
