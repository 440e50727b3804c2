module messaging-go

go 1.22

require github.com/pulumi/pulumi/sdk/v3 v3.239.0

// `pulumi package add messaging` generates the SDK and adds its require and replace lines.
