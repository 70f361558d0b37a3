// graphql-js's subscribe(), with the response stream an object of this file's class: graphql-js maps the
// source stream through closures and an async next() that stays suspended for the subscription's whole life,
// which every open subscription paid for in memory (docs/performance.md, Memory per subscription).
import { createSourceEventStream, execute, type ExecutionArgs, type ExecutionResult } from 'graphql';

/** What graphql-js's subscribe() gives: the response stream, or the errors that refused the subscription. */
export async function subscribe(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const sourceOrResult = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in sourceOrResult)) return sourceOrResult;
  return new ResponseStream(sourceOrResult[Symbol.asyncIterator](), args);
}

/** Each event of the source stream executed with the event as its root value, as graphql-js's subscribe() maps it. */
class ResponseStream implements AsyncIterableIterator<ExecutionResult> {
  constructor(
    private readonly source: AsyncIterator<unknown>,
    private readonly args: ExecutionArgs,
  ) {}

  next(): Promise<IteratorResult<ExecutionResult>> {
    return this.source.next().then((step) => this.mapped(step));
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    return this.source.return ? this.mapped(await this.source.return()) : { value: undefined, done: true };
  }

  async throw(error?: unknown): Promise<IteratorResult<ExecutionResult>> {
    if (!this.source.throw) throw error;
    return this.mapped(await this.source.throw(error));
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private mapped(step: IteratorResult<unknown>): IteratorResult<ExecutionResult> | Promise<IteratorResult<ExecutionResult>> {
    return step.done ? { value: undefined, done: true } : this.response(step.value);
  }

  /** The event's response; a failure to execute it ends the source first, as graphql-js's mapping does. */
  private async response(event: unknown): Promise<IteratorResult<ExecutionResult>> {
    try {
      return { value: await execute({ ...this.args, rootValue: event }), done: false };
    } catch (error) {
      await this.return().catch(() => {});
      throw error;
    }
  }
}
