// The player's display name (docs/play.md, "Names"): asked in the lobby
// until the player chooses one (a guest plays under its default, "Guest
// 4F2A", meanwhile), editable there at any time, and said in the header.
// Names are untrusted text: they are only ever put in as text.

import { byId } from "./dom";
import { CallError } from "./backend";
import { refusal } from "./errors";

/** NameResult is the answer of getName and setName. */
export interface NameResult {
  name: string;
  chosen: boolean;
  updated?: string[];
}

type Call = <T>(fn: string, data: object) => Promise<T>;

let shownFor = "";
let signedInAs = "";
/** edited: the player typed in the name field since the name was last
 * said; a name read late (getName) then leaves the field alone. */
let edited = false;

/** showName says the name in the header and the lobby's form: asking for
 * one while the player has not chosen it. */
function showName(r: NameResult): void {
  byId("who").textContent = `Signed in as ${signedInAs}, playing as ${r.name}`;
  byId("name-ask").textContent = r.chosen
    ? `Other players see you as “${r.name}”. You can change it here.`
    : `Choose the name other players will see. Until you do, they see “${r.name}”.`;
  const input = byId<HTMLInputElement>("name-input");
  if (document.activeElement !== input && !edited) input.value = r.name;
  byId("name-form").dataset.chosen = r.chosen ? "1" : "";
}

/** loadName reads the signed-in player's name once per account (label:
 * how the account signed in, "guest" or its email). */
export async function loadName(call: Call, uid: string, label: string): Promise<void> {
  if (shownFor === uid) return;
  shownFor = uid;
  signedInAs = label;
  try {
    showName(await call<NameResult>("getName", {}));
  } catch (e) {
    shownFor = "";
    byId("name-status").textContent = "Your name could not be read: " + refusal(e);
  }
}

/** forgetName clears the name at sign-out. */
export function forgetName(): void {
  shownFor = "";
  edited = false;
  byId("name-status").textContent = "";
  byId("name-ask").textContent = "Reading your name…";
  byId<HTMLInputElement>("name-input").value = "";
}

/** setupNameForm sends the form's name with setName. A refusal says what
 * is wrong with the name, in the server's words about it. */
export function setupNameForm(call: Call): void {
  const status = byId("name-status");
  byId("name-input").addEventListener("input", () => (edited = true));
  byId("name-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    status.textContent = "Saving…";
    call<NameResult>("setName", { name: byId<HTMLInputElement>("name-input").value }).then(
      (r) => {
        edited = false;
        showName(r);
        status.textContent = "Saved" + (r.updated?.length ? ` (and shown in your ${r.updated.length === 1 ? "game" : r.updated.length + " games"} in play).` : ".");
      },
      (e) => {
        status.textContent =
          e instanceof CallError && e.details?.code === "invalid_name"
            ? "That name cannot be used: the name " + e.message.replace(/^data\.name /, "") + "."
            : "The name was not saved: " + refusal(e);
      },
    );
  });
}
