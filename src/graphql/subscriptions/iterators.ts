// Async iterators as graphql-ws consumes them.

/** The same iterator, calling `onEnd` once when it ends, however it ends (kept an object, not an async generator, so return() is never queued behind a pending next()). */
export function withEnd<T>(iterator: AsyncIterableIterator<T>, onEnd: () => void): AsyncIterableIterator<T> {
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      onEnd();
    }
  };
  const wrapped: AsyncIterableIterator<T> = {
    next: async () => {
      try {
        const step = await iterator.next();
        if (step.done) end();
        return step;
      } catch (error) {
        end();
        throw error;
      }
    },
    return: async (value?: unknown) => {
      end();
      return (await iterator.return?.(value)) ?? { value: undefined, done: true };
    },
    throw: async (error?: unknown) => {
      end();
      if (iterator.throw) return iterator.throw(error);
      throw error;
    },
    [Symbol.asyncIterator]: () => wrapped,
  };
  return wrapped;
}
