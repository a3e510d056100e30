// The page's configuration, served by the server beside the page
// (config.json; web/play.Config), so the page and the functions always name
// the same project and emulators.

export interface Config {
  projectId: string;
  apiKey: string;
  authDomain?: string;
  /** Base URL of the functions; "" or absent for this origin. */
  functionsUrl?: string;
  /** http://HOST:PORT of the Auth emulator. */
  authEmulator?: string;
  /** HOST:PORT of the Firestore emulator. */
  firestoreEmulator?: string;
  /** "firestore": live listeners; "memory": the server keeps games in
   * memory and the page polls getView. */
  store: "firestore" | "memory";
  /** Development sign-in by name ("Bearer dev:<uid>", no proof). */
  devAuth?: boolean;
  /** The server creates seeded games (gamectl serve --allow-seeded,
   * FAIRBOARD_ALLOW_SEEDED=1): the lobby then offers seeded tables. */
  allowSeeded?: boolean;
  /** The server's published Ed25519 key for acknowledgements, 64 hex
   * digits (the public half of FAIRBOARD_ACK_KEY): pinned, every
   * acknowledgement of a trustless seat's reveal or deal message must
   * verify under it (tableack.ts). Absent: the server signs none. */
  ackKey?: string;
}

export async function loadConfig(): Promise<Config> {
  const resp = await fetch("config.json", { cache: "no-store" });
  if (!resp.ok) throw new Error("config.json: HTTP " + resp.status);
  const c = (await resp.json()) as Config;
  if (!c.projectId || !c.apiKey || (c.store !== "firestore" && c.store !== "memory")) {
    throw new Error("config.json is incomplete: it needs projectId, apiKey and store");
  }
  return c;
}

/** functionURL is the URL of a function. */
export function functionURL(c: Config, name: string): string {
  const base = c.functionsUrl ? c.functionsUrl.replace(/\/$/, "") : location.origin;
  return base + "/" + name;
}
