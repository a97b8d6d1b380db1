/**
 * In a cucumber worker process (--parallel N): when the run that forked it stops (SIGINT, SIGTERM),
 * its IPC channel closes. Cucumber's worker would then die on an unhandled EPIPE with a stack trace
 * on the shared stderr, or linger holding the terminal; it leaves quietly instead.
 */
if (process.env.CUCUMBER_PARALLEL === 'true' && typeof process.send === 'function') {
  process.on('disconnect', () => process.exit(130));
  process.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_IPC_CHANNEL_CLOSED') process.exit(130);
    throw error;
  });
}
