import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { crossSiteMutations } from '../graphql/csrf.ts';
import { armorFor } from '../graphql/limits.ts';
import { PublicDocuments } from '../graphql/public-documents.ts';
import { catalogueChangesPlugin, publicReadsPlugin, releaseOf, type PublicReads } from '../graphql/public-reads.ts';
import { replicaReadsPlugin } from '../graphql/replica-reads.ts';
import { buildSchema } from '../graphql/schema.ts';
import { createApollo } from '../graphql/server.ts';
import { outsideRunsPlugin, trustedDocumentsFor, type OnOutside, type TrustedDocuments } from '../graphql/trusted-documents.ts';
import type { Callers } from '../http/authentication.ts';
import { CatalogueVersion } from '../http/catalogue-version.ts';
import { PublicCache } from '../http/public-cache.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { readCatalogueVersion } from '../modules/activities/catalogue-version.ts';
import { buildRestSchema } from '../rest/schema.ts';
import type { Tracing } from '../telemetry/tracing.ts';

// The two Apollo servers, started with the app and stopped with it: the public one for /graphql, and the REST
// shim's (src/rest/schema.ts), with the same limits and plugins; and what they share: public-read tags, trusted documents.

export type ApolloDeps = {
  config: Config;
  database: Database;
  callers: Callers;
  metrics?: Metrics | undefined;
  tracing?: Tracing | undefined;
};

export async function startApolloServers(app: FastifyInstance, { config, database, callers, metrics, tracing }: ApolloDeps) {
  const publicSchema = buildSchema({ subgraph: config.subgraph });
  const restSchema = buildRestSchema();
  const { catalogue, cache, publicReads } = publicReadsFor(config, database, callers, [publicSchema, restSchema]);
  const validationRules = armorFor().validationRules;
  // The operations the first-party clients ship, read at start: a bad manifest stops the start.
  const trusted = trustedDocumentsFor(config, publicSchema, validationRules);
  const onOutsideTrusted: OnOutside = (outcome, reason) => {
    metrics?.countOutsideTrusted(outcome, reason);
    if (outcome === 'ran') app.log.warn({ reason }, 'an operation outside the trusted documents ran (TRUSTED_DOCUMENTS_MODE=log)');
  };
  // A /graphql mutation an ambient credential signed in from a foreign Origin is refused (src/graphql/csrf.ts).
  const mutations = crossSiteMutations(callers.authentication, config.corsOrigins);
  // One Apollo server per schema, with the same limits and plugins.
  const apolloFor = (schema: GraphQLSchema, api: 'graphql' | 'rest', trustedDocuments?: TrustedDocuments) =>
    createApollo({
      schema,
      trusted: trustedDocuments,
      responseLimit: config.responseLimit,
      playground: config.playground,
      logger: app.log,
      plugins: [
        ...(metrics ? [metrics.apolloPlugin(api)] : []),
        ...(tracing ? [tracing.apolloPlugin] : []),
        // /graphql's answers: public reads tagged, every other private (the REST shim sets its own).
        ...(api === 'graphql' ? [publicReadsPlugin(publicReads), mutations.plugin as ApolloServerPlugin<BaseContext>] : []),
        // In log mode, an operation outside the trusted documents is counted once it runs (src/graphql/trusted-documents.ts).
        ...(api === 'graphql' && trustedDocuments ? [outsideRunsPlugin(onOutsideTrusted)] : []),
        // After a mutation here, the next public read does not trust the version held in memory (public-reads.ts).
        ...(cache ? [catalogueChangesPlugin(catalogue)] : []),
        // Queries on a replica that has what they need, and each caller's writes known to every instance (replica-reads.ts).
        ...(database.replicas
          ? [replicaReadsPlugin({ replicas: database.replicas, catalogueVersion: cache && (() => catalogue.vouchedFor()) })]
          : []),
      ],
    });
  const apollo = apolloFor(publicSchema, 'graphql', trusted);
  const restApollo = apolloFor(restSchema, 'rest');
  await Promise.all([apollo.start(), restApollo.start()]);
  app.addHook('onClose', () => Promise.all([apollo.stop(), restApollo.stop()]));
  return {
    apollo,
    restApollo,
    publicSchema,
    restSchema,
    validationRules,
    trusted,
    onOutsideTrusted,
    mutations,
    catalogue,
    cache,
    publicReads,
  };
}

/** HTTP caching of public reads (docs/operations.md, HTTP caching), unless PUBLIC_CACHE_MAX_AGE is 0: tags from the
 * catalogue's version, which this instance hears move on the database's listening connection (src/plugins/listening.ts). */
function publicReadsFor(config: Config, database: Database, { authenticator }: Callers, schemas: GraphQLSchema[]) {
  const catalogue = new CatalogueVersion(() => readCatalogueVersion(database.read));
  const cache =
    config.publicCacheMaxAgeMs > 0
      ? new PublicCache({
          maxAgeSeconds: config.publicCacheMaxAgeMs / 1_000,
          catalogue,
          presentsCredential: (headers) => authenticator.presentsCredential(headers),
          readsCookies: authenticator.readsCookies,
          release: releaseOf(schemas),
        })
      : undefined;
  const publicReads: PublicReads | undefined = cache && { cache, documents: new PublicDocuments() };
  return { catalogue, cache, publicReads };
}
