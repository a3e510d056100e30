// The verifier page: loads verify.wasm (the verifier compiled from Go: a
// dungeon game's export, or a table game's record), then verifies the file
// the player drops or chooses. The file is read
// in the browser and handed to the WebAssembly; nothing is sent anywhere.
"use strict";

const titles = {
  ok: "Verified",
  diverged: "Refused: the game does not hold together",
  invalid: "Not a game export or record",
};

function show(status, title, message) {
  const v = document.getElementById("verdict");
  document.getElementById("verdict-title").textContent = title;
  document.getElementById("verdict-message").textContent = message;
  v.dataset.status = status;
}

let ready = false;
window.addEventListener("fairboard-verifier-ready", () => {
  ready = true;
  show("", "Ready", "Drop an export or a record to verify it.");
});

async function start() {
  const go = new Go();
  try {
    const resp = await fetch("verify.wasm");
    if (!resp.ok) throw new Error("verify.wasm: HTTP " + resp.status);
    const { instance } = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
    go.run(instance); // runs until the page closes; fires fairboard-verifier-ready
  } catch (err) {
    show("invalid", "The verifier could not load", String(err));
  }
}

async function verifyFile(file) {
  if (!ready) {
    show("", "Loading the verifier…", "Try again in a moment.");
    return;
  }
  show("", "Verifying " + file.name + "…", "");
  let text;
  try {
    text = await file.text();
  } catch (err) {
    show("invalid", titles.invalid, "cannot read the file: " + err);
    return;
  }
  // Let the browser paint the "Verifying" line before the work.
  await new Promise((r) => setTimeout(r, 0));
  const v = window.fairboardVerify(text);
  show(v.status, titles[v.status] || v.status, v.message);
}

const drop = document.getElementById("drop");
const input = document.getElementById("file");
input.addEventListener("change", () => {
  if (input.files.length > 0) verifyFile(input.files[0]);
});
drop.addEventListener("dragover", (e) => {
  e.preventDefault();
  drop.classList.add("over");
});
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => {
  e.preventDefault();
  drop.classList.remove("over");
  if (e.dataTransfer.files.length > 0) verifyFile(e.dataTransfer.files[0]);
});

start();
