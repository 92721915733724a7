export { CHANNELS_PATH, CONNECT_PATHS, channelPath, type ChannelChange } from '~/lib/channels/paths'
