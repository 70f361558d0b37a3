import { assertAccess } from '../../auth/access.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { RequestContext } from '../context.ts';
import type { PublishEditionPayloadMapper } from './mappers.ts';
import { grantObjective, grantMilestone, PUBLISH_CUSTOMIZED_LESSON } from './grants.ts';

// What a signed-in user can do with milestones, for GraphQL and the REST shim alike.

/** POST /published_edition: the user published a customized lesson edition (once, however often it is said). */
export async function publishEdition(ctx: RequestContext): Promise<PublishEditionPayloadMapper> {
  const user = assertAccess(ctx.viewer, 'edition.publish');
  await inTransaction(ctx.db, async (tx) => {
    await grantObjective(tx, user.id, PUBLISH_CUSTOMIZED_LESSON);
    await grantMilestone(tx, user.id, PUBLISH_CUSTOMIZED_LESSON);
  });
  return { user };
}
