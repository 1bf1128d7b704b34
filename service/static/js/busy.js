/* Action: one request at a time, the state marked busy meanwhile. */

import { changed, state } from "./store.js";

// Run one request at a time; the page shows it is busy meanwhile (app.js marks the body). A
// failure is shown, not thrown; once done, the keyboard focus is put somewhere useful.
export async function busyWith(work, kind = "move") {
  if (state.busy) return undefined;
  state.busy = kind;
  changed();
  try {
    return await work();
  } catch (error) {
    changed({ error });
    return undefined;
  } finally {
    state.busy = false;
    changed({ focus: true });
  }
}
