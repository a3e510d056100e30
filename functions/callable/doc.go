// Package callable implements Firebase's callable-function protocol
// (https.onCall) over net/http, so that a Firebase client's httpsCallable
// reaches a Go handler unchanged.
//
// A call is a POST with "Content-Type: application/json" (an optional
// "; charset=utf-8" is allowed), "Authorization: Bearer <Firebase ID token>"
// and a body that is exactly {"data": <any JSON>}. The answer is
// {"result": <JSON>} with HTTP 200, or
// {"error": {"status": "...", "message": "...", "details": ...}} with the
// HTTP code the protocol gives that status (see [Status.HTTPStatus]).
//
// [Handler] checks the request, verifies the ID token through a
// [TokenVerifier] (deploy adapts the Firebase Admin SDK's), runs the
// function with the caller's uid and the raw data, and writes the answer.
// A function reports a rejection by returning an [*Error]; any other error
// becomes INTERNAL with a generic message, and its text is logged with
// log/slog, never sent. [DecodeData] decodes the data strictly.
package callable
