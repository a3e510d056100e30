// A refused call, said in words naming its cause.

import { CallError } from "./callerror";

const causes: Record<string, string> = {
  not_your_turn: "it is not your turn",
  not_owner: "only the game's owner may do that",
  not_created: "there is no such game (or you are not in it)",
  stale_version: "the game moved on before your action arrived",
  wrong_step: "that action does not belong to this step of the turn",
  not_started: "the game has not started yet",
  already_started: "the game has already started",
  game_over: "the game is over",
  game_full: "every seat of this game is taken: go back to the lobby to create or open another game",
  too_few_players: "too few players are seated to start",
  rules_mismatch: "the game was made under another ruleset",
  invalid_action: "the game does not allow that action now",
  item_not_held: "you do not hold that item",
  unknown_player: "that player is not in the game",
  seat_taken: "that seat is taken",
  already_joined: "you are already seated in this game",
  not_seated: "you hold no seat in this game (the owner may have removed you)",
  seat_free: "that seat is free already",
  already_created: "a game with that id already exists",
  duplicate_action: "that action was already applied",
  action_id_reused: "that action id was already used for another action",
  seeded_disabled: "this server does not allow seeded games",
  not_finished: "the game is not finished yet",
  pending: "the game waits for the players' reveals first",
  wrong_index: "that round is over",
  already_revealed: "this seat has revealed for that round already",
  bad_signature: "the signature does not match the seat's key",
  deadline_passed: "the round's deadline has passed",
  deadline_not_passed: "the round's deadline has not passed yet",
  not_exportable: "this game cannot be exported (it was played before the server kept its actions)",
  bad_entropy: "the contribution or its commitment is not one this table takes",
  wrong_opening: "the contribution does not open the commitment this seat made at its join",
  already_opened: "this seat has opened its contribution already",
  not_opened: "a seat has not opened its contribution yet",
};

const statuses: Record<string, string> = {
  "functions/unauthenticated": "you are not signed in (or your session ended): sign in again",
  "functions/permission-denied": "you may not do that",
  "functions/not-found": "there is no such game (or you are not in it)",
  "functions/invalid-argument": "the server refused the request as malformed",
  "functions/failed-precondition": "the game is not in a state that allows it",
  "functions/already-exists": "that was already done",
  "functions/aborted": "the game was busy: try again",
  "functions/unavailable": "the server could not be reached: try again",
  "functions/deadline-exceeded": "the server took too long to answer: try again",
  "functions/internal": "the server failed",
};

/** retryable: the call may or may not have landed, and sending it again
 * with the same action id is safe (the server answers a landed action
 * with its first result). */
export function retryable(e: unknown): boolean {
  if (!(e instanceof CallError)) return false;
  return ["functions/unavailable", "functions/aborted", "functions/deadline-exceeded", "functions/internal", "functions/unknown"].includes(e.code);
}

/** selfExplained are the refusals whose words above say all there is:
 * the server's own message would only say it again in the code's words. */
const selfExplained = new Set([
  "not_your_turn", "not_owner", "not_created", "stale_version", "not_started", "already_started", "game_over", "game_full",
  "seat_taken", "already_joined", "not_seated", "seat_free", "already_created", "duplicate_action", "action_id_reused", "seeded_disabled",
  "wrong_opening", "already_opened", "not_opened",
  "functions/not-found", "functions/unauthenticated",
]);

/** refusal says why a call failed, in words, with the server's message
 * where it adds something. */
export function refusal(e: unknown): string {
  if (e instanceof CallError) {
    const code = e.details?.code && causes[e.details.code] ? e.details.code : e.code;
    const cause = causes[code] || statuses[code] || "the server refused it";
    const msg = e.message && e.message !== "internal" && !selfExplained.has(code) ? ` (${e.message})` : "";
    return cause.charAt(0).toUpperCase() + cause.slice(1) + msg + ".";
  }
  return String(e instanceof Error ? e.message : e);
}
