// The help dialog: a game's rules, from its own definition (the
// engine's WebAssembly, game.Helper).

import { h, replace } from "./dom";
import type { Help } from "./engine";

/** renderHelp fills the help dialog from the game's help. */
export function renderHelp(body: HTMLElement, help: Help): void {
  if (help.error) {
    replace(body, h("p", {}, "The rules could not be read: " + help.error));
    return;
  }
  replace(
    body,
    help.summary ? h("p", { class: "summary" }, help.summary) : null,
    ...help.sections.map((s) =>
      h(
        "section",
        {},
        h("h3", {}, s.title),
        s.intro ? h("p", {}, s.intro) : null,
        s.items?.length ? h("dl", {}, ...s.items.flatMap((it) => [h("dt", {}, it.name), h("dd", {}, it.text)])) : null,
      ),
    ),
  );
}
