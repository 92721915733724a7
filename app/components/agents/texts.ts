/** The Agents screen's messages, word for word from the spec (section 8, "Agents"). */
export const AGENT_TEXTS = {
  created: 'Agent created successfully',
  updated: 'Agent updated successfully',
  createFailed: (reason: string) => `Failed to create agent: ${reason}`,
  updateFailed: (reason: string) => `Failed to update agent: ${reason}`,
  deleted: 'Agent deleted successfully',
  deleteFailed: 'Failed to delete agent',
  tested: 'Agent test completed',
  testFailed: (reason: string) => `Failed to test agent: ${reason}`,
  loadErrorTitle: 'Error Loading Agents',
  loadFailed: 'Failed to load agents',
} as const

/** The agent form's own words, where the spec has none (docs/decisions/066). */
export const AGENT_FORM_TEXTS = {
  templatesLabel: 'Start from a template',
  templatesHint: 'Pick your kind of business: its instructions fill in below, for you to make yours.',
  blank: 'Blank',
  readableIdHint:
    'Made from the name; lowercase letters, numbers and hyphens. It cannot change after creation.',
  systemPromptHint:
    'What the agent should do: who it speaks for, what it knows, how it answers. Replace the parts in [brackets].',
  advancedHint: 'Fine tuning for the model. The defaults suit most businesses.',
} as const

/** The Test Agent chat's own words (docs/decisions/067). */
export const TEST_CHAT_TEXTS = {
  empty:
    'Write as a customer would: the agent answers as it would on your channels, and remembers the conversation.',
  next: 'Reply as the customer…',
  full: 'This test conversation is as long as it gets. Start over to try another.',
  startOver: 'Start over',
  noModel: 'no AI model is set up on this server yet (see “Production” in the setup guide, models)',
} as const
