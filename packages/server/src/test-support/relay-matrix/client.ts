// What a client format is to the matrix: how it asks (path, headers, body in its own shape) and how
// its answers and streams are read, strictly, as that format's SDK would expect them.
import type { ChatWire } from '../../relay/wire/types.js';
import type { Json, Scenario, SeenAnswer } from './scenario.js';

export interface ClientCall {
  path: string;
  headers: Record<string, string>;
  body: Json;
}

export interface ClientFormat {
  /** As the README names the format. */
  name: string;
  wire: ChatWire;
  request(model: string, scenario: Scenario, stream: boolean, key: string): ClientCall;
  /** A JSON answer, checked field by field. */
  parseAnswer(body: unknown): SeenAnswer;
  /** A whole stream's text, its event sequence checked. */
  parseStream(text: string): SeenAnswer;
}
