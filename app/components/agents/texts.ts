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
