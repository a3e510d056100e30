// A refused or failed call, apart from the backend (backend.ts re-exports
// it) so that the page's words for refusals (errors.ts) import no
// Firebase and run in Node (TestTableSeatsInNode).

/** CallError is a refused or failed call: code is the callable status as
 * the Firebase SDK spells it ("functions/failed-precondition"), details
 * the server's ({code: "wrong_step"}). */
export class CallError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: { code?: string },
  ) {
    super(message);
  }
}
