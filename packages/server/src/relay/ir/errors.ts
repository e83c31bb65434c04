// An error as the client sees it: HTTP status plus the OpenAI error object. Inbound formats other than
// OpenAI render the same fields in their own shape.

export interface IrError {
  status: number;
  message: string;
  type: string;
  code: string | null;
}

/** Thrown anywhere in the relay; the relay's error handler renders it in the client's format. */
export class RelayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null = null,
    readonly type: string = status >= 500 ? 'server_error' : 'invalid_request_error',
  ) {
    super(message);
    this.name = 'RelayError';
  }

  toIr(): IrError {
    return { status: this.status, message: this.message, type: this.type, code: this.code };
  }
}
