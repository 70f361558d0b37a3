-- AlterTable
ALTER TABLE "access_tokens" ADD COLUMN     "token_prefix" TEXT;

-- CreateIndex
CREATE INDEX "access_tokens_token_prefix_idx" ON "access_tokens"("token_prefix");
