/** On every log line of this package: tells its background jobs' errors apart in a shared log. */
export const LOG_FIELDS = { component: 'a2a/redis' } as const;
