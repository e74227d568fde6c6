# The devices of the qemu-system-arm this project builds. scripts/build links
# this file into QEMU's tree as configs/devices/arm-softmmu/am335x.mak and
# configures --without-default-devices: Kconfig then builds these machines
# and what they select, not the ~70 other ARM boards (half the compile).

# The two AM335x boards (Kconfig in this repository).
CONFIG_BEAGLEBONE=y
CONFIG_AM335X_EVM=y

# virt, for scripts/bench's baseline: virtio-net over virtio-mmio.
CONFIG_ARM_VIRT=y
CONFIG_VIRTIO_NET=y
CONFIG_VIRTIO_MMIO=y

# USB devices for the MUSB host ports: usb-storage, usb-kbd/-mouse/-tablet,
# usb-hub.
CONFIG_USB_STORAGE_CLASSIC=y
CONFIG_USB_HID=y
CONFIG_USB_HUB=y

# -device loader: a file (or a start address) put into the guest's memory
# at start, as on QEMU's other boards.
CONFIG_GENERIC_LOADER=y
