// Where node-forge asks for node's `crypto` (only when it runs in node): the page is no node.
export {};
