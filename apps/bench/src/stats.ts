// Small statistics the probes print.

/** The lower median (the middle of an odd count, the lower middle of an even one); `NaN` for none. */
export const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;
