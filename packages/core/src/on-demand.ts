/**
 * A module imported at its first use rather than at start-up, once per process: `load()` starts the import the first
 * time and returns the same promise after. What loads this way, and why: docs/performance.md, "Footprint".
 */
export function onDemand<T>(importer: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= importer();
    return loading;
  };
}
