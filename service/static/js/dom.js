/* View: an element of the page by its id. */

export const $ = (id) => document.getElementById(id);
