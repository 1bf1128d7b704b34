/* View: the message line (an error told from its code, or a note), and the note that a request is
 * being sent again. */

import { $ } from "./dom.js";
import { ApiFailure, GoneGame } from "./failures.js";
import { t } from "./i18n.js";

export function showMessage(text, kind = "error") {
  const box = $("message");
  $("message-text").textContent = text;
  box.classList.toggle("info", kind !== "error");
  box.hidden = false;
}

export function clearMessage() {
  $("message").hidden = true;
  $("message-text").textContent = "";
}

export function showError(error) {
  if (error instanceof GoneGame) {
    showMessage(error.message, "error");
    $("message").dataset.code = error.failure.code;
    return;
  }
  const text = error instanceof ApiFailure ? error.describe() : (error && error.message ? error.message : String(error));
  showMessage(text, "error");
  // The code and the server's own words stay within reach for a bug report.
  $("message").dataset.code = error instanceof ApiFailure ? error.code : "";
  $("message-text").title = error instanceof ApiFailure && error.message ? error.message : "";
}

// The quiet note while a request is being sent again (api.js).
export function renderRetry(state) {
  const note = $("retry-note");
  note.hidden = !state.retrying;
  note.textContent = state.retrying ? t("retrying") : "";
}
