/**
 * The one DynamoDB table's definition (docs/architecture.md#3-the-table), shared by the CDK stack and `infra/local`.
 * `PK`/`SK` strings, four sparse overloaded GSIs with projection ALL, TTL attribute `expiresAt`
 * (epoch seconds; cleanup only, never a timer: readers always filter on it).
 */
export const TTL_ATTRIBUTE = "expiresAt";

export const GSI_NAMES = ["GSI1", "GSI2", "GSI3", "GSI4"] as const;
export type GsiName = (typeof GSI_NAMES)[number];

/** Key schema in a form both `CreateTableCommand` and CDK's `TableV2` can be built from. */
export const tableDefinition = {
  partitionKey: "PK",
  sortKey: "SK",
  globalSecondaryIndexes: GSI_NAMES.map((name) => ({
    indexName: name,
    partitionKey: `${name}PK`,
    sortKey: `${name}SK`,
  })),
  ttlAttribute: TTL_ATTRIBUTE,
} as const;

/** `CreateTableCommand` input for the definition above (on-demand billing). */
export function createTableInput(tableName: string) {
  const attrs = new Set<string>([tableDefinition.partitionKey, tableDefinition.sortKey]);
  for (const g of tableDefinition.globalSecondaryIndexes) {
    attrs.add(g.partitionKey);
    attrs.add(g.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST" as const,
    AttributeDefinitions: [...attrs].map((AttributeName) => ({ AttributeName, AttributeType: "S" as const })),
    KeySchema: [
      { AttributeName: tableDefinition.partitionKey, KeyType: "HASH" as const },
      { AttributeName: tableDefinition.sortKey, KeyType: "RANGE" as const },
    ],
    GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((g) => ({
      IndexName: g.indexName,
      KeySchema: [
        { AttributeName: g.partitionKey, KeyType: "HASH" as const },
        { AttributeName: g.sortKey, KeyType: "RANGE" as const },
      ],
      Projection: { ProjectionType: "ALL" as const },
    })),
  };
}
