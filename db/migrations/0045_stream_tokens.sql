CREATE TABLE "stream_states" (
	"token_id" bigint PRIMARY KEY NOT NULL,
	"trace" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"layout" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stream_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stream_states" ADD CONSTRAINT "stream_states_token_id_stream_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."stream_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_tokens" ADD CONSTRAINT "stream_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stream_tokens_token_idx" ON "stream_tokens" USING btree ("token");--> statement-breakpoint
CREATE INDEX "stream_tokens_user_idx" ON "stream_tokens" USING btree ("user_id");--> statement-breakpoint
-- A figure with its traces' stream tokens taken out (the rest of each stream kept): the plot records'
-- figure for anyone but the owner. Its TypeScript twin is lib/shared/streams.ts dropStreamTokens.
CREATE OR REPLACE FUNCTION figure_without_stream_tokens(fig jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(fig->'data') = 'array' AND jsonb_path_exists(fig, '$.data[*].stream.token')
    THEN jsonb_set(fig, '{data}', (
      SELECT jsonb_agg(CASE WHEN jsonb_typeof(t->'stream') = 'object' THEN jsonb_set(t, '{stream}', (t->'stream') - 'token') ELSE t END ORDER BY i)
      FROM jsonb_array_elements(fig->'data') WITH ORDINALITY AS e(t, i)))
    ELSE fig END
$$;
