import type { Message } from '~/db/schema'
import type { ChatMessage } from '~/integrations/llm/model.server'
import { estimateTokens, PROMPT_HISTORY_TOKEN_BUDGET } from '~/lib/conversations/reply-pipeline'
import type { PromptRow } from './queries.server'

/**
 * The prompt rows (newest first) as the model's messages, oldest first, within the token budget. Messages in a
 * row from the same side become one (a customer's burst: "hi" / "I ordered a jacket" / "it hasn't arrived" is one
 * turn of three lines), which every provider takes (some refuse two user turns in a row).
 */
export function promptOf(rows: PromptRow[], budgetTokens = PROMPT_HISTORY_TOKEN_BUDGET): ChatMessage[] {
  const merged: ChatMessage[] = []
  for (const message of trimToBudget([...rows].reverse(), budgetTokens)) {
    const last = merged.at(-1)
    if (last?.role === message.role) last.content = `${last.content}\n${message.content}`
    else merged.push({ ...message })
  }
  return merged
}

/** Keeps the newest messages that fit the budget (always the last one), and starts with the customer's turn. */
export function trimToBudget(
  rows: { direction: Message['direction']; text: string }[],
  budgetTokens: number,
): ChatMessage[] {
  const kept: ChatMessage[] = []
  let used = 0
  for (let i = rows.length - 1; i >= 0; i--) {
    const cost = estimateTokens(rows[i].text)
    if (kept.length > 0 && used + cost > budgetTokens) break
    used += cost
    kept.unshift({ role: rows[i].direction === 'inbound' ? 'user' : 'assistant', content: rows[i].text })
  }
  while (kept.length > 1 && kept[0].role === 'assistant') kept.shift()
  return kept
}
