/**
 * The address of a client file named at run time (a message catalogue): under optimised
 * delivery the server gives every file a name with its content's hash and lists the names
 * in the page's data block (`#reelsmith-files`); a file it does not list (plain delivery) is
 * served under its own address.
 */
let names = null;

export function fileAddress(path) {
  if (names === null) {
    const block = document.getElementById('reelsmith-files');
    names = block ? JSON.parse(block.textContent).names : {};
  }
  return names[path] ?? path;
}
