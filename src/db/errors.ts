/** An error, then the error it was caused by, and so on (`cause`), at most five deep: drivers and Prisma wrap each other's. */
export function* causeChain(error: unknown): Generator<Record<string, unknown>> {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth += 1) {
    yield e as Record<string, unknown>;
    e = (e as { cause?: unknown }).cause;
  }
}
