/** An order's status in the mock. Its own file, below orders.ts and magic.ts, which both use it. */
export type OrderStatus = 'processing' | 'approved' | 'declined' | 'filtered' | 'error' | 'unknown';
