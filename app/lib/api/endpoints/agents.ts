import { z } from 'zod'
import {
  agentListQuerySchema,
  agentSchema,
  createAgentBodySchema,
  patchAgentBodySchema,
  runAgentSchema,
} from '~/lib/agents/schemas'
import { idSchema } from '~/lib/shared/input'
import { defineEndpoint } from '~/lib/api/contract'
import { orgParams } from './shared'

const agentRunResultSchema = z.object({
  output: z.string(),
  handoff: z
    .object({ reason: z.string().meta({ description: "The model's reason for handing over" }) })
    .nullable()
    .meta({
      description:
        "Set when the agent called its handoff tool (offered only when handoffEnabled): in a conversation the customer would receive the agent's handoffMessage, and the conversation would be paused and marked Needs attention; null otherwise",
    }),
  executionId: z.string(),
  modelUsed: z.string(),
  tokensUsed: z.object({ prompt: z.number(), completion: z.number(), total: z.number() }),
  latencyMs: z.number(),
  timestamp: z.string(),
  language: z.string().nullable().meta({
    description:
      "The language the question was written in (ISO 639-1), when detected: the answer is asked in it unless the agent's replyLanguage is set",
  }),
  knowledge: z
    .object({
      passages: z
        .array(
          z.object({
            sourceId: z.string(),
            title: z.string().meta({ description: "The source's title (an FAQ's question)" }),
            headingPath: z.array(z.string()).meta({ description: 'The headings the passage sits under' }),
            score: z.number().meta({
              description:
                "0-1: how much of the question's weighted words it holds, plus up to 0.4 as its heading (an FAQ's question) reads like the question",
            }),
            text: z.string().meta({ description: 'The passage as the prompt carried it' }),
            url: z.string().nullable().meta({ description: 'A web source: the page it was read from' }),
          }),
        )
        .meta({ description: 'The passages the prompt carried, best first' }),
      miss: z.boolean().meta({
        description:
          "The model found the answer neither in the passages listed (possibly none matched) nor in the agent's instructions: it answered NO_ANSWER, as its instruction asks, and output is the agent's knowledgeNoAnswerMessage (in a conversation the customer would get it and the conversation would be marked Needs attention). False: the model answered, from the passages or, when passages is empty, from its instructions (a greeting, small talk, what the system prompt says)",
      }),
    })
    .nullable()
    .meta({
      description:
        "What the agent's knowledge gave this answer; null when knowledge played no part (knowledgeMode none, an organization or selection without any processed passage, or small talk)",
    }),
})

const agentParams = orgParams.extend({ agentId: idSchema })

export const agentEndpoints = {
  listAgents: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/agents',
    operationId: 'listAgents',
    summary: "The organization's agents, optionally by status, a page at a time",
    tag: 'Agents',
    params: orgParams,
    query: agentListQuerySchema,
    response: z.array(agentSchema),
  }),
  createAgent: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/agents',
    operationId: 'createAgent',
    summary:
      "Create an agent: name, readableId and systemPrompt are required; what else is left out takes the spec defaults and a new agent's behaviour and knowledge (shown per field: it answers from all of the organization's knowledge), status active",
    tag: 'Agents',
    params: orgParams,
    body: createAgentBodySchema,
    response: agentSchema,
    successStatus: 201,
  }),
  getAgent: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/agents/{agentId}',
    operationId: 'getAgent',
    summary: 'One agent',
    tag: 'Agents',
    params: agentParams,
    response: agentSchema,
  }),
  updateAgent: defineEndpoint({
    method: 'PATCH',
    path: '/organizations/{orgId}/agents/{agentId}',
    operationId: 'updateAgent',
    summary:
      'Change the fields given, and only those; null clears description, maxTokens, topP or topK, and switches officeHours off. The readable id cannot change',
    tag: 'Agents',
    params: agentParams,
    body: patchAgentBodySchema,
    response: agentSchema,
  }),
  deleteAgent: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}/agents/{agentId}',
    operationId: 'deleteAgent',
    summary: 'Archive an agent (it stays, with its runs, and answers no one)',
    tag: 'Agents',
    params: agentParams,
    response: agentSchema,
  }),
  runAgent: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/agents/{agentId}/run',
    operationId: 'runAgent',
    summary:
      "Run an agent on one message, grounded in its knowledge as a customer's message would be, and record the run (context.metadata.testMode marks a test; history names earlier runs, oldest first, that the model reads before the message)",
    tag: 'Agents',
    params: agentParams,
    body: runAgentSchema,
    response: agentRunResultSchema,
  }),
}
