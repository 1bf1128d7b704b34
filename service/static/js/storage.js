/* Action: the browser's storage, which may be missing (private windows, file://, node): then nothing
 * is kept. */

export const storage = {
  get(area, key) {
    try { return window[area].getItem(key); } catch { return null; }
  },
  set(area, key, value) {
    try {
      if (value === null) window[area].removeItem(key); else window[area].setItem(key, value);
    } catch { /* storage unavailable: keep in memory only */ }
  },
};
