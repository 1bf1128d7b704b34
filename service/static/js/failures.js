/* Pure: the failures the page tells apart — the API's, by their codes, and a saved game that is gone. */

import { t, TEXT } from "./i18n.js";

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
