/* The message line, and the errors the page tells from their codes. */

import { t, TEXT } from "./i18n.js";
import { $ } from "./state.js";

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

export class ApiFailure extends Error {
  constructor(status, code, detail, retryAfter) {
    super(detail);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
  // The failure in the page's language, from its code (the server's detail is English).
  describe() {
    if (this.status === 0) return t("networkError");
    if (this.code === "busy") return t("busy", { s: this.retryAfter || 1 });
    const key = "err_" + this.code;
    return key in TEXT.en ? t(key) : t("errorOther", { status: this.status });
  }
}

// A saved game the server no longer has (or will not show): its code kept, the words the page's.
export class GoneGame extends Error {
  constructor(failure) {
    super(t("gameGone"));
    this.failure = failure;
  }
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
